"""A table's life outside its moves: ``lifecycle`` (opened, joined, left, started, aborted,
rematch), ``seated`` (tables whose players the site chooses), ``capacity`` and
``invitations`` (what one account may open and invite), ``handover`` (a seat handed to a
bot), ``chat``, ``notes`` (the private notepad) and ``limits`` (the pages' and the API's
shared allowances)."""
