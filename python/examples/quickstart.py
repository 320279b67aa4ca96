"""Five lines: a PyTorch tensor and a CuPy array, transposed by cuperm and checked."""
import cupy, torch, cuperm
x = torch.randn(64, 128, 256, device="cuda")
assert torch.equal(cuperm.transpose(x, (2, 0, 1)), x.permute(2, 0, 1).contiguous())
c = cupy.random.rand(64, 128, 256, dtype=cupy.float32)
assert bool((cuperm.transpose(c, (1, 2, 0)) == c.transpose(1, 2, 0)).all())
print("quickstart ok:", cuperm.library_path())
