"""OneStep TTS development tools (distribution ``onestep-tts-dev``, ``dev/`` of the repository): training
(:mod:`onestep_dev.train`), the Kokoro teacher (:mod:`onestep_dev.teacher`), evaluation (:mod:`onestep_dev.eval`),
benchmarks (:mod:`onestep_dev.bench`) and the ``onestep`` commands that run them (:mod:`onestep_dev.commands`).

The runtime package ``onestep`` never imports this package; ``onestep.cli.DEV_COMMANDS`` names its commands."""
