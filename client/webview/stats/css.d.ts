/** Style sheets imported for esbuild, which writes them beside the bundle. */
declare module '*.css';
