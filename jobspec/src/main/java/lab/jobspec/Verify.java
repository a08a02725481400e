package lab.jobspec;

import java.util.Arrays;
import java.util.Optional;

/**
 * fio's {@code verify=} values the lab accepts, each by fio's name. The bridge writes and checks
 * them in the lab's own block layout (lab.bridge.run.VerifyHeader), not fio's on-disk
 * {@code struct verify_header}: a file written by fio does not verify in the lab, nor the reverse.
 * The JVM model checks no data.
 */
public enum Verify {
    /** No verification. */
    NONE("none"),
    /** CRC32C (Castagnoli) of the block's data area in its header. */
    CRC32C("crc32c"),
    /** CRC32 (zlib's) of the data area in the header. */
    CRC32("crc32"),
    /** MD5 of the data area in the header. */
    MD5("md5"),
    /** SHA-1 of the data area in the header. */
    SHA1("sha1"),
    /** SHA-256 of the data area in the header. */
    SHA256("sha256"),
    /**
     * fio's {@code meta}: the header alone (offset, length, generation, clone), its CRC32C over
     * those fields and not over the data; fio 3.33 calls it deprecated, its header checks being
     * what every kind does.
     */
    META("meta"),
    /** fio's {@code pattern}: no header; the whole block is {@code verify_pattern}, checked byte for byte. */
    PATTERN("pattern");

    private final String fioName;

    Verify(String fioName) {
        this.fioName = fioName;
    }

    /**
     * Bytes of the lab's header for this kind (lab.bridge.run.VerifyHeader): 0 for {@code pattern}
     * and none, 32 for the crcs and meta, 32 and the digest for the digests.
     */
    public int headerBytes() {
        return switch (this) {
            case PATTERN, NONE -> 0;
            case CRC32C, CRC32, META -> 32;
            case MD5 -> 32 + 16;
            case SHA1 -> 32 + 20;
            case SHA256 -> 32 + 32;
        };
    }

    /** fio's spelling, as {@code verify=} takes it. */
    public String fioName() {
        return fioName;
    }

    /** The kind fio spells {@code name} ({@code crc32c-intel} and {@code 0} are fio's synonyms). */
    static Optional<Verify> of(String name) {
        return switch (name) {
            case "0" -> Optional.of(NONE);
            case "crc32c-intel" -> Optional.of(CRC32C);
            default -> Arrays.stream(values()).filter(v -> v.fioName.equals(name)).findFirst();
        };
    }
}
