! A cuperm contraction from Fortran, einsum style with character mode labels:
!   D(m, n, b) = sum_k A(k, m, b) * B(n, k, b) + 0.5 * C(m, n, b),  C and D one array
! on the GPU, checked on the host. Exits 77 without a GPU.
program contraction_example
  use, intrinsic :: iso_c_binding
  use cuperm_f
  use cuda_runtime_f
  implicit none
  integer(c_int64_t), parameter :: nm = 23, nn = 17, nk = 31, nb = 3
  real(c_double), allocatable, target :: a(:, :, :), b(:, :, :), d(:, :, :), want(:, :, :)
  type(c_ptr) :: handle, plan, da, db, dd, ws
  type(cuperm_tensor_t) :: ta, tb, td
  type(cupermContractionInfo_t) :: info
  integer(c_size_t) :: bytes
  integer :: m, n, k, l

  call require_gpu_or_skip('contraction_example')
  call ok(cuperm_create(handle), 'cuperm_create')

  allocate(a(nk, nm, nb), b(nn, nk, nb), d(nm, nn, nb), want(nm, nn, nb))
  call random_number(a)
  call random_number(b)
  call random_number(d)
  do l = 1, int(nb)
    do n = 1, int(nn)
      do m = 1, int(nm)
        want(m, n, l) = 0.5_c_double * d(m, n, l)
        do k = 1, int(nk)
          want(m, n, l) = want(m, n, l) + a(k, m, l) * b(n, k, l)
        end do
      end do
    end do
  end do

  ! Extents in Fortran order: a(nk, nm, nb) has modes 'kmb'.
  ta = cuperm_tensor('kmb', [nk, nm, nb], CUPERM_R_64F)
  tb = cuperm_tensor('nkb', [nn, nk, nb], CUPERM_R_64F)
  td = cuperm_tensor('mnb', [nm, nn, nb], CUPERM_R_64F)
  call ok(cuperm_contraction_plan(handle, plan, ta, tb, td, td), 'cuperm_contraction_plan')
  call ok(cuperm_contraction_plan_get_info(plan, info), 'cuperm_contraction_plan_get_info')
  print '(a, 4(i0, 1x), a)', 'plan: GEMM m n k batch = ', info%m, info%n, info%k, info%batch, &
      '; ' // cuperm_c_string(info%description)
  call ok(cuperm_contraction_workspace_size(plan, bytes), 'cuperm_contraction_workspace_size')

  call cuda_check(cudaMalloc(da, c_sizeof(a(1, 1, 1)) * size(a, kind=c_size_t)), 'cudaMalloc a')
  call cuda_check(cudaMalloc(db, c_sizeof(b(1, 1, 1)) * size(b, kind=c_size_t)), 'cudaMalloc b')
  call cuda_check(cudaMalloc(dd, c_sizeof(d(1, 1, 1)) * size(d, kind=c_size_t)), 'cudaMalloc d')
  ws = c_null_ptr
  if (bytes > 0) call cuda_check(cudaMalloc(ws, bytes), 'cudaMalloc workspace')
  call cuda_check(cudaMemcpy(da, c_loc(a), c_sizeof(a(1, 1, 1)) * size(a, kind=c_size_t), &
                             cudaMemcpyHostToDevice), 'copy a')
  call cuda_check(cudaMemcpy(db, c_loc(b), c_sizeof(b(1, 1, 1)) * size(b, kind=c_size_t), &
                             cudaMemcpyHostToDevice), 'copy b')
  call cuda_check(cudaMemcpy(dd, c_loc(d), c_sizeof(d(1, 1, 1)) * size(d, kind=c_size_t), &
                             cudaMemcpyHostToDevice), 'copy d')

  ! alpha, beta: real(c_double) for an R_64F D; C = D (same pointer and strides)
  call ok(cuperm_contract(plan, 1.0_c_double, da, db, 0.5_c_double, dd, dd, workspace=ws, &
                          workspace_bytes=bytes), 'cuperm_contract')
  call cuda_check(cudaDeviceSynchronize(), 'synchronize')
  call cuda_check(cudaMemcpy(c_loc(d), dd, c_sizeof(d(1, 1, 1)) * size(d, kind=c_size_t), &
                             cudaMemcpyDeviceToHost), 'copy d')
  print '(a, es10.3)', 'max |D - reference| = ', maxval(abs(d - want))
  if (maxval(abs(d - want)) > 1e-12_c_double * nk) then
    print '(a)', 'FAILED: D differs from the host reference'
    stop 1
  end if

  call ok(cuperm_contraction_plan_destroy(plan), 'cuperm_contraction_plan_destroy')
  call ok(cuperm_destroy(handle), 'cuperm_destroy')
  call cuda_check(cudaFree(da), 'cudaFree')
  call cuda_check(cudaFree(db), 'cudaFree')
  call cuda_check(cudaFree(dd), 'cudaFree')
  if (c_associated(ws)) call cuda_check(cudaFree(ws), 'cudaFree')
  print '(a)', 'contraction_example: OK'

contains

  subroutine ok(status, what)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: what
    if (status == CUPERM_STATUS_SUCCESS) return
    print '(a)', 'FAILED: ' // what // ': ' // cuperm_get_error_string(status) // ': ' // &
        cuperm_get_last_error_message()
    stop 1
  end subroutine

end program
