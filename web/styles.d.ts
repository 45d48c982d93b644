// Stylesheets are imported for their side effect (Vite bundles them); TypeScript 7 checks that
// side-effect imports resolve, and a .css file has no types of its own.
declare module '*.css'
