"""English date formats: day, month and year written out, 24-hour times.

Django's English defaults are American ("Dec. 1, 2026, 5 p.m.", "12/01/2026"), which
players elsewhere misread; the other languages keep Django's own formats for them."""

DATETIME_FORMAT = "l j F Y, H:i"
DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
YEAR_MONTH_FORMAT = "F Y"
