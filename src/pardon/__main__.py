"""``python -m pardon`` runs the ``pardon`` command."""

import sys

from pardon.cli import main

sys.exit(main())
