"""``python -m sandbox``: the same as ``cascadia-bot sandbox`` (see :mod:`sandbox.cli`)."""

from sandbox.cli import main

if __name__ == "__main__":
    main()
