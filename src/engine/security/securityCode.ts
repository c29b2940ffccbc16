/** What load.ts fetches on demand: the security layer and the Byzantine attacks. */
export { SecurityLayer } from './layer';
export { maliciousGradient } from './byzantine';
