"""``python -m ranklens.cli``: the same as the ``ranklens`` command."""

import sys

from ranklens.cli import main

sys.exit(main())
