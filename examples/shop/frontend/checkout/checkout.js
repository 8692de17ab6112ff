export function checkout() {}
