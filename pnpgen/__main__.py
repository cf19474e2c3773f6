"""`python -m pnpgen`: the same as the `pnpgen` command."""

from .cli import main

if __name__ == "__main__":
    main()
