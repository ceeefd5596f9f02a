from django.db import migrations


class Migration(migrations.Migration):
    """The sealed-bid table goes: the engine's state holds a step's sealed actions until it
    reveals them, and the move log holds every action (docs/architecture.md, "Sealed
    steps"). Nothing but tests ever read the table."""

    dependencies = [("games", "0008_replacevote")]

    operations = [migrations.DeleteModel(name="SealedBid")]
