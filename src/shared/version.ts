// The package's version, as the bins print it for `--version`.

/** The version of the package this code came in: written in by the build; `development` when the source runs as it is. */
export const VERSION = typeof __BIZMSG_VERSION__ === 'string' ? __BIZMSG_VERSION__ : 'development';
