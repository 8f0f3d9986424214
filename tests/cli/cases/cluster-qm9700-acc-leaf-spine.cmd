cluster --server dgx-h100 --switch qm9700 --nodes 16 --assume row_pitch_m=1.8
