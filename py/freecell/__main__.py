"""Run the ``freecell`` command: ``python -m freecell 617``."""

import sys

from freecell._cli import main

sys.exit(main())
