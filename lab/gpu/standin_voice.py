"""Random full-size voice as en-heart, and the same graphs as zh-xiaoxiao (names shadow the shipped voices).

Same architecture = same compute as the shipped voices, which are too big to carry to the GPU machine.
Usage: python lab/gpu/standin_voice.py DIR   (server_load.sh, ray_load.sh)
"""

import os
import sys
import time
from pathlib import Path

t0 = time.perf_counter()
from onestep.config import VoiceConfig
from onestep.model_config import ModelConfig
from onestep.model.export import export_voice
from onestep.model.voice_models import build_models
root = Path(sys.argv[1])
en = root / "en-heart"
export_voice(build_models(ModelConfig(), seed=0), VoiceConfig(name="en-heart", language="en", placeholder=True), en)
zh = root / "zh-xiaoxiao"
zh.mkdir(parents=True)
for f in en.iterdir():
    if f.name != "voice.json":
        os.symlink(f.resolve(), zh / f.name)
(zh / "voice.json").write_text((en / "voice.json").read_text().replace('"name": "en-heart"', '"name": "zh-xiaoxiao"')
                               .replace('"language": "en"', '"language": "zh"'))
print(f"stand-in voices in {root} ({time.perf_counter() - t0:.1f} s)")
