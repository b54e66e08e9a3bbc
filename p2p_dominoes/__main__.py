"""`python -m p2p_dominoes` runs the command line."""

from p2p_dominoes.cli import main

raise SystemExit(main())
