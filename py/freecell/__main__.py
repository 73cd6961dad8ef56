"""Run the ``freecell`` command: ``python -m freecell 617``."""

import sys

from _freecell_command import main

sys.exit(main())
