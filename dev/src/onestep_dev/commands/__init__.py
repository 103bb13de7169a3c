"""The ``onestep`` commands of the development distribution, registered by ``onestep.cli.DEV_COMMANDS``."""
