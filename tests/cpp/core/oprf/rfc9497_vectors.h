// Test vectors of RFC 9497 appendix A.1.2 (VOPRF mode, ristretto255-SHA512),
// batch size 1 (vectors 1 and 2; vector 3 is a batch of two, which the API
// does not expose). Read from the RFC's source, the final
// draft-irtf-cfrg-voprf.md of github.com/cfrg/draft-irtf-cfrg-voprf (section
// "ristretto255-SHA512" / "VOPRF Mode"), and cross-checked byte for byte
// against an independent implementation's test file (de.bitplumber.crypto.oprf,
// Ristretto255VOPRFTest.java, "ristretto255-SHA512 - VOPRF - Test Vector 1/2,
// Batch Size 1"). The proof is c || s (32 bytes each).
//
// Plus RFC 9380 appendix K.3 (expand_message_xmd with SHA-512, DST
// "QUUX-V01-CS02-with-expander-SHA512-256"), as quoted by several
// implementations' tests (RustCrypto-style and libecc test suites).
#pragma once

#include <cstddef>

namespace deniable::oprf::rfc9497 {

inline constexpr const char* kSeed = "a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3";
inline constexpr const char* kKeyInfo = "74657374206b6579";  // "test key"
inline constexpr const char* kSkSm = "e6f73f344b79b379f1a0dd37e07ff62e38d9f71345ce62ae3a9bc60b04ccd909";
inline constexpr const char* kPkSm = "c803e2cc6b05fc15064549b5920659ca4a77b2cca6f04f6b357009335476ad4e";

struct VoprfVector {
  const char* input;
  const char* blind;
  const char* blinded_element;
  const char* evaluation_element;
  const char* proof;  // c || s
  const char* proof_random_scalar;
  const char* output;
};

inline constexpr VoprfVector kVoprfVectors[] = {
    {"00", "64d37aed22a27f5191de1c1d69fadb899d8862b58eb4220029e036ec4c1f6706",
     "863f330cc1a1259ed5a5998a23acfd37fb4351a793a5b3c090b642ddc439b945",
     "aa8fa048764d5623868679402ff6108d2521884fa138cd7f9c7669a9a014267e",
     "ddef93772692e535d1a53903db24367355cc2cc78de93b3be5a8ffcc6985dd06"
     "6d4346421d17bf5117a2a1ff0fcb2a759f58a539dfbe857a40bce4cf49ec600d",
     "222a5e897cf59db8145db8d16e597e8facb80ae7d4e26d9881aa6f61d645fc0e",
     "b58cfbe118e0cb94d79b5fd6a6dafb98764dff49c14e1770b566e42402da1a7d"
     "a4d8527693914139caee5bd03903af43a491351d23b430948dd50cde10d32b3c"},
    {"5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a", "64d37aed22a27f5191de1c1d69fadb899d8862b58eb4220029e036ec4c1f6706",
     "cc0b2a350101881d8a4cba4c80241d74fb7dcbfde4a61fde2f91443c2bf9ef0c",
     "60a59a57208d48aca71e9e850d22674b611f752bed48b36f7a91b372bd7ad468",
     "401a0da6264f8cf45bb2f5264bc31e109155600babb3cd4e5af7d181a2c9dc0a"
     "67154fabf031fd936051dec80b0b6ae29c9503493dde7393b722eafdf5a50b02",
     "222a5e897cf59db8145db8d16e597e8facb80ae7d4e26d9881aa6f61d645fc0e",
     "8a9a2f3c7f085b65933594309041fc1898d42d0858e59f90814ae90571a6df60"
     "356f4610bf816f27afdd84f47719e480906d27ecd994985890e5f539e7ea74b6"},
};

// RFC 9380 K.3: expand_message_xmd(SHA-512).
inline constexpr const char* kXmdDst = "QUUX-V01-CS02-with-expander-SHA512-256";

struct XmdVector {
  const char* message;
  std::size_t length;
  const char* uniform_bytes;
};

inline constexpr XmdVector kXmdVectors[] = {
    {"", 0x20, "6b9a7312411d92f921c6f68ca0b6380730a1a4d982c507211a90964c394179ba"},
    {"abc", 0x20, "0da749f12fbe5483eb066a5f595055679b976e93abe9be6f0f6318bce7aca8dc"},
    {"", 0x80,
     "41b037d1734a5f8df225dd8c7de38f851efdb45c372887be655212d07251b921b052b62eaed99b46f72f2ef4cc96bfaf254ebbbec091e1a3b9e4"
     "fb5e5b619d2e0c5414800a1d882b62bb5cd1778f098b8eb6cb399d5d9d18f5d5842cf5d13d7eb00a7cff859b605da678b318bd0e65ebff70bec8"
     "8c753b159a805d2c89c55961"},
    {"abc", 0x80,
     "7f1dddd13c08b543f2e2037b14cefb255b44c83cc397c1786d975653e36a6b11bdd7732d8b38adb4a0edc26a0cef4bb45217135456e58fbca170"
     "3cd6032cb1347ee720b87972d63fbf232587043ed2901bce7f22610c0419751c065922b488431851041310ad659e4b23520e1772ab29dcdeb20022"
     "22a363f0c2b1c972b3efe1"},
};

}  // namespace deniable::oprf::rfc9497
