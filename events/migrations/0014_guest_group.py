from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0013_party_options"),
    ]

    operations = [
        migrations.AddField(
            model_name="guest",
            name="group",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
    ]
