// stex's WebGPU provider for Node.js (ES module): create(flags) and globals.
import provider from './index.js';

export const { create, globals } = provider;
export default provider;
