// Placeholder while the route is being built in this session.
export default function Placeholder() {
  return null;
}
