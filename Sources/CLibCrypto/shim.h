// SHA-256 from the system's OpenSSL libcrypto (Debian's libssl-dev),
// through its EVP digest interface.
#include <openssl/evp.h>
