audit --dump tests/fixtures/pastes/matrix-axolotl-536-8gpu-pix-node-nonic.txt
# exit 3
