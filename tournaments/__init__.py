"""The organiser's side: tournaments, teams, tables, deals, the schedule and printing."""
