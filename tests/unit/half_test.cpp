#include <gtest/gtest.h>
#include "kernel_operator.h"
TEST(Half, RoundTripOne) { EXPECT_EQ(static_cast<float>(half(1.0f)), 1.0f); }
