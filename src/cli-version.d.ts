// The package's version, written into the two bins by the build (tsup's \`define\`) and by vitest's config.

/** The version of the package the bin came in, for \`--version\`. */
declare const __BIZMSG_VERSION__: string;
