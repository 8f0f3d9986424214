plan --server apollo-6500-gen10-plus
