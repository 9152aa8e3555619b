"""English dates as the organiser's pages have always shown them (ISO: 2026-11-27 18:05); the
other formats are Django's. French takes Django's own (27/11/2026 18:05)."""

SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
