// SHA-256 content digests (sandbox/digest.h): the standard's test vectors, fields that cannot be re-split, and the
// store's candidate hash, which two different candidates do not share.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "eval/candidate_files.h"
#include "sandbox/digest.h"

namespace fs = std::filesystem;

TEST(Digest, Sha256TestVectors) {   // FIPS 180-2, appendix B
  EXPECT_EQ(kgen::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(kgen::sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(kgen::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(kgen::sha256_hex("abc", 16), "ba7816bf8f01cfea");
}

TEST(Digest, FieldsAreLengthPrefixed) {
  kgen::Digest a, b, c;
  a.add("ab").add("c");
  b.add("a").add("bc");
  c.add("ab").add("c");
  const std::string ha = a.hex(), hb = b.hex();
  EXPECT_NE(ha, hb);
  EXPECT_EQ(ha, c.hex());
  EXPECT_THROW(a.add("x"), std::logic_error);   // ended by hex()
}

TEST(Digest, CandidateHashSeparatesFilesAndContents) {
  const fs::path root = fs::path(::testing::TempDir()) / ("kgen_digest_" + std::to_string(::getpid()));
  auto put = [&](const std::string& dir, const std::string& rel, const std::string& text) {
    fs::create_directories((root / dir / rel).parent_path());
    std::ofstream(root / dir / rel) << text;
  };
  put("a", "op_kernel/k.cpp", "int x;");
  put("a", "op_host/h.cpp", "int y;");
  put("b", "op_kernel/k.cpp", "int x;");
  put("b", "op_host/h.cpp", "int y; ");   // one byte more
  put("c", "op_kernel/k.cpp", "int x;");
  put("c", "op_host/h.cpp", "int y;");
  const std::string ha = kgen::eval::candidate_hash((root / "a").string());
  EXPECT_EQ(ha.size(), 64u);
  EXPECT_NE(ha, kgen::eval::candidate_hash((root / "b").string()));
  EXPECT_EQ(ha, kgen::eval::candidate_hash((root / "c").string()));   // same files, another folder: same hash
  fs::remove_all(root);
}
