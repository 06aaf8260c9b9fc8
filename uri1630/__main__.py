"""`python -m uri1630`: the command line (hand-written entry point; the CLI itself is exported from nbs/30_cli.ipynb)."""
import sys
from uri1630.cli import main

if __name__ == "__main__":
    sys.exit(main())
