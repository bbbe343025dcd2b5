lib.MatrixMultiply(
    out._tensor._storage, out._tensor._shape.astype(np.int32), out._tensor._strides.astype(np.int32),
    a._tensor._storage, a._tensor._shape.astype(np.int32), a._tensor._strides.astype(np.int32),
    b._tensor._storage, b._tensor._shape.astype(np.int32), b._tensor._strides.astype(np.int32),
    a.shape[0], a.shape[1], b.shape[2],
)
