"""Remote: compare the PyTorch teacher port with the int8 ONNX teacher on two sentences (durations + audio)."""

import sys
import time

import numpy as np
import onnx
import onnxruntime as ort
import torch

from onestep.frontend.symbols import phonemes_to_ids
from onestep_dev.train.kokoro_torch import load_teacher
from onestep_dev.teacher.voices import style_for

onnx_path, style_path = sys.argv[1], sys.argv[2]
table = np.load(style_path)
model = onnx.load(onnx_path)
model.graph.output.extend([onnx.helper.make_tensor_value_info("/encoder/Cast_output_0", onnx.TensorProto.INT64, None)])
sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
teacher = load_teacher(onnx_path, device="cuda")
for ph in ["hˈɛlO wˈɜɹld, ðɪs ɪz ə tˈɛst.", "ni↓xau↓, ʂɨ↘ʨjɛ↘."]:
    ids = phonemes_to_ids(ph)
    style = style_for(table, ids).reshape(1, 256)
    a, d = sess.run(None, {"tokens": np.array([ids]), "style": style, "speed": np.array([1.0], np.float32)})
    t0 = time.time()
    b, e = teacher(torch.tensor([ids], device="cuda"), torch.from_numpy(style).cuda())
    torch.cuda.synchronize()
    dt = time.time() - t0
    b, e = b.float().cpu().numpy(), e.cpu().numpy()
    n = min(a.size, b.size)
    print(f"durations equal: {np.mean(d.ravel() == e):.2%}  audio corr {np.corrcoef(a.ravel()[:n], b[:n])[0, 1]:.3f}"
          f"  rms {a.std():.4f}/{b.std():.4f}  gpu {dt * 1000:.0f} ms for {b.size / 24000:.1f} s")
