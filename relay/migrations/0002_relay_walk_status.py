from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("relay", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="relay",
            name="status",
            field=models.CharField(
                choices=[
                    ("open", "Captains are drawing seats"),
                    ("walk", "The carriers are walking the gifts to the next tables"),
                    ("done", "Every gift has arrived; every table plays on"),
                ],
                default="open",
                max_length=8,
            ),
        ),
    ]
