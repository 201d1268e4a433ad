"""The card-reading shoe (or shuffler): line protocol, serial transport, simulator."""
