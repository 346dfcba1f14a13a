import { describe, expect, it } from 'vitest';
import { clientGroup } from './client-address.ts';

describe('the client a per-client count is kept for', () => {
  it('counts IPv6 addresses by their /64, however they are written', () => {
    expect(clientGroup('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientGroup('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(clientGroup('2001:0DB8:0001:0002:0:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(clientGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientGroup('2001:db8:0:0:1::')).toBe('2001:db8:0:0::/64');
    expect(clientGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientGroup('::1')).toBe('0:0:0:0::/64');
  });

  it('keeps addresses of different /64s apart', () => {
    expect(clientGroup('2001:db8:1:2::1')).not.toBe(clientGroup('2001:db8:1:3::1'));
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientGroup('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientGroup('::FFFF:c000:0207')).toBe('192.0.2.7');
    expect(clientGroup('0:0:0:0:0:ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('takes IPv4 addresses and anything that is no address as they are', () => {
    expect(clientGroup('192.0.2.7')).toBe('192.0.2.7');
    expect(clientGroup('unknown')).toBe('unknown');
  });
});
