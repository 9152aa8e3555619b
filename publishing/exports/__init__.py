"""The export files, free of Django: the sheets' shape (``sheets``), how they are filled from a
tournament in columns (``workbook``), and the writers (``xlsx``, ``ods``, ``csvzip``)."""
