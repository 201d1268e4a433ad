"""`python -m tests.faults [--soak]`: the fault suite's counts as a table (suite.py)."""

from .suite import main

raise SystemExit(main())
