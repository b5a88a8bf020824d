// Tiling classes shared by tiling_data_test.cpp (host side, inside namespace optiling::host_t) and
// tiling_data_kernel_test.cpp (kernel side, inside namespace optiling). Included inside a namespace.
BEGIN_TILING_DATA_DEF(KtInner)
TILING_DATA_FIELD_DEF(uint16_t, a);
TILING_DATA_FIELD_DEF_ARR(uint8_t, 3, b);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(KtInnerOp, KtInner)

BEGIN_TILING_DATA_DEF(KtTiling)
TILING_DATA_FIELD_DEF(uint8_t, c);
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(int64_t, big);
TILING_DATA_FIELD_DEF_ARR(int16_t, 5, arr);
TILING_DATA_FIELD_DEF(float, f);
TILING_DATA_FIELD_DEF_STRUCT(KtInner, inner);
TILING_DATA_FIELD_DEF(int8_t, s8);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
TILING_DATA_FIELD_DEF(uint64_t, last);
TILING_DATA_FIELD_DEF(uint16_t, tail);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(KtOp, KtTiling)

BEGIN_TILING_DATA_DEF(KtKey1)
TILING_DATA_FIELD_DEF(uint32_t, x);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(KtOp_1, KtKey1)
