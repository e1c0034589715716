"""The madnb version; madnb.control carries the same number (a test checks)."""

__version__ = "0.1.0"
