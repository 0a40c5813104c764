from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0012_game_name_checked_by_registry"),
    ]

    operations = [
        migrations.AddField(
            model_name="party",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
