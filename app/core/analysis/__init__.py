"""Analysis for the pit: house edge by simulation, the value of every setting, the odds."""
