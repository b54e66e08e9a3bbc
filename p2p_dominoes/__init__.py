"""p2p-dominoes: Draw dominoes on a local network with no server and no trusted dealer."""

__version__ = "0.1.0"
