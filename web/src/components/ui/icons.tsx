import type { ReactNode } from 'react';
import { cn } from '@/lib/cn.ts';

const shapes = {
  plus: [<path key="a" d="M5 12h14M12 5v14" />],
  users: [
    <path key="a" d="M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2" />,
    <circle key="b" cx="9" cy="7" r="4" />,
    <path key="c" d="M22 21v-2a4 4 0 0 0-3-3.87M16 3.13a4 4 0 0 1 0 7.75" />,
  ],
  userPlus: [
    <path key="a" d="M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2" />,
    <circle key="b" cx="9" cy="7" r="4" />,
    <path key="c" d="M19 8v6M22 11h-6" />,
  ],
  trophy: [
    <path key="a" d="M6 9H4.5a2.5 2.5 0 0 1 0-5H6M18 9h1.5a2.5 2.5 0 0 0 0-5H18M4 22h16" />,
    <path
      key="b"
      d="M10 14.66V17c0 .55-.47.98-.97 1.21C7.85 18.75 7 20.24 7 22M14 14.66V17c0 .55.47.98.97 1.21C16.15 18.75 17 20.24 17 22"
    />,
    <path key="c" d="M18 2H6v7a6 6 0 0 0 12 0V2Z" />,
  ],
  check: [<path key="a" d="M20 6 9 17l-5-5" />],
  checkCircle: [<circle key="a" cx="12" cy="12" r="10" />, <path key="b" d="m9 12 2 2 4-4" />],
  x: [<path key="a" d="M18 6 6 18M6 6l12 12" />],
  clock: [<circle key="a" cx="12" cy="12" r="10" />, <path key="b" d="M12 6v6l4 2" />],
  arrowLeft: [<path key="a" d="m12 19-7-7 7-7M19 12H5" />],
  search: [<circle key="a" cx="11" cy="11" r="8" />, <path key="b" d="m21 21-4.3-4.3" />],
  mail: [
    <rect key="a" x="2" y="4" width="20" height="16" rx="2" />,
    <path key="b" d="m22 7-8.97 5.7a1.94 1.94 0 0 1-2.06 0L2 7" />,
  ],
  camera: [
    <path
      key="a"
      d="M14.5 4h-5L7 7H4a2 2 0 0 0-2 2v9a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V9a2 2 0 0 0-2-2h-3l-2.5-3z"
    />,
    <circle key="b" cx="12" cy="13" r="3" />,
  ],
  dollar: [<path key="a" d="M12 2v20M17 5H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6" />],
  calendar: [
    <rect key="a" x="3" y="4" width="18" height="18" rx="2" />,
    <path key="b" d="M16 2v4M8 2v4M3 10h18" />,
  ],
  activity: [<path key="a" d="M22 12h-4l-3 9L9 3l-3 9H2" />],
  logOut: [<path key="a" d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />],
  externalLink: [
    <path
      key="a"
      d="M15 3h6v6M10 14 21 3M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6"
    />,
  ],
  shield: [
    <path key="a" d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z" />,
    <path key="b" d="m9 12 2 2 4-4" />,
  ],
  handshake: [
    <path key="a" d="m11 17 2 2a1 1 0 1 0 3-3" />,
    <path
      key="b"
      d="m14 14 2.5 2.5a1 1 0 1 0 3-3l-3.88-3.88a3 3 0 0 0-4.24 0l-.88.88a1 1 0 1 1-3-3l2.81-2.81a5.79 5.79 0 0 1 7.06-.87l.47.28a2 2 0 0 0 1.42.25L21 4"
    />,
    <path key="c" d="m21 3 1 11h-2M3 3 2 14l6.5 6.5a1 1 0 1 0 3-3M3 4h8" />,
  ],
  message: [<path key="a" d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />],
  alert: [<circle key="a" cx="12" cy="12" r="10" />, <path key="b" d="M12 8v4M12 16h.01" />],
} satisfies Record<string, ReactNode[]>;

export type IconName = keyof typeof shapes;

/** A decorative line icon; pair it with visible text or an aria-label on the control. */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={cn('size-4 shrink-0', className)}
    >
      {shapes[name]}
    </svg>
  );
}
