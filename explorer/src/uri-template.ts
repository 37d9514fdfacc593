/** The variables of an RFC 6570 URI template: `{id}`, `{+path}`, `{?a,b}`. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, , list] of template.matchAll(/\{([+#./;?&]?)([^}]+)\}/g)) {
    for (const raw of list!.split(',')) {
      const name = raw.replace(/(\*|:\d+)$/, '');
      if (!names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** The URI of a template with its variables filled in (levels 1 to 3 of RFC 6570). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#./;?&]?)([^}]+)\}/g, (_, operator: string, list: string) => {
    const names = list.split(',').map((raw) => raw.replace(/(\*|:\d+)$/, ''));
    const present = names.filter((name) => values[name] !== undefined && values[name] !== '');
    const encode = operator === '+' || operator === '#' ? encodeURI : encodeURIComponent;
    if (present.length === 0) return '';
    switch (operator) {
      case '?':
      case '&':
        return (
          operator + present.map((name) => `${name}=${encodeURIComponent(values[name]!)}`).join('&')
        );
      case ';':
        return present.map((name) => `;${name}=${encodeURIComponent(values[name]!)}`).join('');
      case '/':
      case '.':
        return present.map((name) => operator + encodeURIComponent(values[name]!)).join('');
      case '#':
        return `#${present.map((name) => encode(values[name]!)).join(',')}`;
      default:
        return present.map((name) => encode(values[name]!)).join(',');
    }
  });
}
