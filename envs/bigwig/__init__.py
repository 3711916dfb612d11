"""BigWig: simultaneous face-down tricks. See rules.py."""
