"""The numpy peer of bench/compare_vectors.sh: ROWS unit vectors of DIM f32
in [-1, 1) from numpy's default generator (PCG64), normalized row by row,
saved as one rows x dim .npy file. Usage: vector_peer.py ROWS DIM OUT.npy"""
import sys

import numpy as np

rows, dim, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(42)
vectors = rng.random((rows, dim), dtype=np.float32) * 2 - 1
vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
np.save(out, vectors)
