// s3rver ships no types; this is the part the S3 avatar test uses.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: unknown[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Resolves with the address it listens on. */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
