"""Publishing: workbook, ODS and CSV exports of a tournament's results, the public hand
records, charts of the places after every round, and the automatic publication of the
standings workbook after every round."""
