import sys

from onestep.cli import main

sys.exit(main())
