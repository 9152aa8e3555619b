"""Double-dummy tables of the dealt boards (docs/double-dummy.md, "On the hand records"): a job
solves every deal as soon as it is dealt, part by part within a time limit, and keeps the table
beside the board for the organiser's deal pages and the published hand records."""
