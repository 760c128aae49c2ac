import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { WorkLimiter } from "./work-limiter.js";

const randomBytesAsync = promisify(randomBytes);

function scryptAsync(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export interface ScryptCost {
  /** log2 of scrypt's N (CPU/memory cost). */
  logN: number;
  r: number;
  p: number;
}

/** N = 2^15, r = 8 (32 MiB, tens of ms per hash); the floor is N = 2^14. */
export const DEFAULT_SCRYPT_COST: ScryptCost = { logN: 15, r: 8, p: 1 };
const MIN_LOG_N = 14;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Stored form: `$scrypt$ln=15,r=8,p=1$<salt>$<key>` (base64, PHC string style). */
const HASH_FORMAT =
  /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/**
 * Password hashes with Node's asynchronous scrypt and a random salt per hash. The cost is stored
 * in each hash, so raising the default later leaves existing hashes verifiable.
 */
export class PasswordHasher {
  private readonly limiter: WorkLimiter;

  constructor(
    private readonly cost: ScryptCost = DEFAULT_SCRYPT_COST,
    options: { concurrency?: number } = {},
  ) {
    if (cost.logN < MIN_LOG_N) throw new Error(`scrypt N must be at least 2^${MIN_LOG_N}`);
    this.limiter = new WorkLimiter(options.concurrency ?? 2);
  }

  async hash(password: string): Promise<string> {
    const salt = await randomBytesAsync(SALT_BYTES);
    const key = await this.derive(password, salt, KEY_BYTES, this.cost);
    const { logN, r, p } = this.cost;
    return `$scrypt$ln=${logN},r=${r},p=${p}$${salt.toString("base64")}$${key.toString("base64")}`;
  }

  /** False for a wrong password and for a stored value that is not one of our hashes. */
  async verify(password: string, stored: string): Promise<boolean> {
    const match = HASH_FORMAT.exec(stored);
    if (match === null) return false;
    const [, logN, r, p, salt, key] = match;
    const cost: ScryptCost = { logN: Number(logN), r: Number(r), p: Number(p) };
    // A stored cost outside sane bounds would make verification a denial of service.
    if (cost.logN < MIN_LOG_N || cost.logN > 20 || cost.r < 1 || cost.r > 16 || cost.p < 1) {
      return false;
    }
    const expected = Buffer.from(key ?? "", "base64");
    if (expected.length < 16) return false;
    const actual = await this.derive(
      password,
      Buffer.from(salt ?? "", "base64"),
      expected.length,
      cost,
    );
    return timingSafeEqual(actual, expected);
  }

  private derive(
    password: string,
    salt: Buffer,
    length: number,
    cost: ScryptCost,
  ): Promise<Buffer> {
    const N = 2 ** cost.logN;
    // scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is exactly the default cost.
    const maxmem = 256 * N * cost.r;
    return this.limiter.run(() =>
      scryptAsync(password.normalize("NFC"), salt, length, { N, r: cost.r, p: cost.p, maxmem }),
    );
  }
}
