"""Subcommands of the `p2p-dominoes` command line; each module has `register(subparsers)`."""
