import { z } from 'zod';

// zod compiles fast parsers with `new Function` after probing whether eval is allowed; the
// Content-Security-Policy forbids eval, and even the probe is reported as a violation.
z.config({ jitless: true });
